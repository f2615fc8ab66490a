// inline_nest.cc: three levels of inlining in C++ (step inlined into
// round, round into block, block into work::outer), for inline.t: the
// hottest address must show every inlined level addr2line -i shows.
// Argument: seconds.
#include <chrono>
#include <cstdlib>

static volatile unsigned long sink;

namespace work {
inline __attribute__((always_inline)) unsigned long step(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}
inline __attribute__((always_inline)) unsigned long round(unsigned long x)
{
	return step(x) ^ (x >> 7);
}
inline __attribute__((always_inline)) unsigned long block(unsigned long x)
{
	return round(x + 3) + 1;
}
__attribute__((noinline)) unsigned long outer(unsigned long x)
{
	unsigned long r = block(x);
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
	return (int)(x & 1);
}
