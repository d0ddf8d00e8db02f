// SwiftPM builds a C target from at least one source file; this target only declares
// libFuzzer's driver entry (see include/CFuzzer.h), so the file holds nothing else.
#include "CFuzzer.h"
