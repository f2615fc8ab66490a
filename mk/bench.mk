# mk/bench.mk: the microbenchmarks' extras. The case-study bar program is
# built with -O3, like examples/ and seed 004.
$(O)/obj/bench/compare/matmul_block.o: OPT = -O3 -g
