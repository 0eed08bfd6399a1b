// firebase/auth.h: Hearth's C++ API under Firebase's header name and namespace, so that code written for
// Firebase's C++ SDK compiles unchanged: `firebase::auth::Auth` is `hearth::auth::Auth`.
#ifndef HEARTH_FIREBASE_AUTH_H_
#define HEARTH_FIREBASE_AUTH_H_

#include "hearth/app.h"
#include "hearth/auth.h"

namespace firebase = hearth;

#endif
