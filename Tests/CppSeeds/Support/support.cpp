// seed_support.h is header-only: each seed program compiles it in its own API generation. This file only gives
// SwiftPM a source to build the target from, and must not include it (see Sources/HearthCpp/HearthCpp.cpp).
#include "hearth/c_api.h"
