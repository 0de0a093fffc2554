import FuzzDriver
import WebImageTesting

// libFuzzer target: `FuzzEntries.jxl` on each input (see Makefile: make fuzz).
runLibFuzzer(FuzzEntries.jxl)
