import FuzzDriver
import WebImageTesting

// libFuzzer target: `FuzzEntries.infoURL` on each input (see Makefile: make fuzz).
runLibFuzzer(FuzzEntries.infoURL)
