// firebase/app.h: Hearth's C++ API under Firebase's header name and namespace.
#ifndef HEARTH_FIREBASE_APP_H_
#define HEARTH_FIREBASE_APP_H_

#include "hearth/app.h"

namespace firebase = hearth;

#endif
