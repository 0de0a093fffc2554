import FuzzDriver
import WebImageTesting

// libFuzzer target: `FuzzEntries.url` on each input (see Makefile: make fuzz).
runLibFuzzer(FuzzEntries.url)
