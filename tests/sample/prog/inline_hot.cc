// inline_hot.cc: inline_hot.c in C++: the inlined function is a namespace
// member, so its DWARF has a linkage name (work::mix(unsigned long) once
// demangled). Argument: seconds.
#include <chrono>
#include <cstdlib>

static volatile unsigned long sink;

namespace work {
inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}
__attribute__((noinline)) unsigned long outer(unsigned long x)
{
	unsigned long r = mix(x);
	sink = r;
	return r;
}
} // namespace work

int main(int argc, char **argv)
{
	double secs = argc > 1 ? std::atof(argv[1]) : 0.3;
	auto t0 = std::chrono::steady_clock::now();
	unsigned long x = 1;
	do {
		for (int k = 0; k < 1000; k++)
			x = work::outer(x);
	} while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
		     .count() < secs);
	return (int)(x & 0);
}
