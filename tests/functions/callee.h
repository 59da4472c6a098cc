/* callee.h - the shared libraries of the function-tracing tests. */
#ifndef CALLEE_H
#define CALLEE_H
int callee_work(int x);
int plugin_work(int x);
#endif
