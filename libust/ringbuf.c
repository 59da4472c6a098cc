#include <ust/tracepoint.h>
