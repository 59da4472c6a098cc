/* placeholder */
#include "clock.h"
