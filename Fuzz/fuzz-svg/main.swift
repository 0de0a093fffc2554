import FuzzDriver
import WebImageTesting

// libFuzzer target: `FuzzEntries.svg` on each input (see Makefile: make fuzz).
runLibFuzzer(FuzzEntries.svg)
