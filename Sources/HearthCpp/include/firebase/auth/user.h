// firebase/auth/user.h: part of firebase/auth.h, which has all of Hearth's auth API.
#include "firebase/auth.h"
