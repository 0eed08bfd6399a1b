// The seed programs' checks are header-only (seed_support.h), compiled with each program's API generation.
#include "seed_support.h"
