/* placeholder */
#include "packet.h"
