// firebase/future.h: Hearth's C++ API under Firebase's header name and namespace.
#ifndef HEARTH_FIREBASE_FUTURE_H_
#define HEARTH_FIREBASE_FUTURE_H_

#include "hearth/future.h"

namespace firebase = hearth;

#endif
