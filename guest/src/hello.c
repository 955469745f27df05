#include <stdlib.h>
#include <stdio.h>
int main(int argc, char **argv) { printf("hello %d\n", argc); return argc > 1 ? atoi(argv[1]) : 0; }
