// The C++ API is header-only (include/hearth, include/firebase): each program compiles it in the API generation
// it chose. This file only gives SwiftPM a source to build the target from. It must not include the C++ headers:
// their inline functions compiled here, in the default generation, could stand in for a legacy-generation
// program's at link time (one definition per program), and the two lay out Auth differently.
#include "hearth/c_api.h"
