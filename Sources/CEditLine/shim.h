#ifndef STORERULES_CEDITLINE_SHIM_H
#define STORERULES_CEDITLINE_SHIM_H

#include <stdio.h>
#include <editline/readline.h>

#endif
