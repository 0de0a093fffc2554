import FuzzDriver
import WebImageTesting

// libFuzzer target: `FuzzEntries.partial` on each input (see Makefile: make fuzz).
runLibFuzzer(FuzzEntries.partial)
