// firebase/variant.h: Hearth's C++ API under Firebase's header name and namespace.
#ifndef HEARTH_FIREBASE_VARIANT_H_
#define HEARTH_FIREBASE_VARIANT_H_

#include "hearth/variant.h"

namespace firebase = hearth;

#endif
