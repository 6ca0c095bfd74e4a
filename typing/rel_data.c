/* The relations of the data operators: gathering, scattering, sorting and cumulative sums. */
#include "typing/oprel.h"
