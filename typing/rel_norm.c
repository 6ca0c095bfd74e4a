/* The relations of the normalization layers and the other layers of networks. */
#include "typing/oprel.h"
