import FuzzDriver
import WebImageTesting

// libFuzzer target: `FuzzEntries.info` on each input (see Makefile: make fuzz).
runLibFuzzer(FuzzEntries.info)
