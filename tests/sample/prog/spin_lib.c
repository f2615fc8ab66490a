/* spin_lib.c: the shared library of the call-stack tests (tests/sample/record.t)
 * and of bench/compare/dwarf_report.sh. */
volatile double lsink;
void lib_spin(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	lsink = x;
}
