import FuzzDriver
import WebImageTesting

// libFuzzer target: `FuzzEntries.decode` on each input (see Makefile: make fuzz).
runLibFuzzer(FuzzEntries.decode)
