import FuzzDriver
import WebImageTesting

// libFuzzer target: `FuzzEntries.thumbnail` on each input (see Makefile: make fuzz).
runLibFuzzer(FuzzEntries.thumbnail)
