import FuzzDriver
import WebImageTesting

// libFuzzer target: `FuzzEntries.transform` on each input (see Makefile: make fuzz).
runLibFuzzer(FuzzEntries.transform)
