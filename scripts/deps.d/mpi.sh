# MPI for libpmkit-mpi (mk/mpi.mk), sourced by scripts/configure: found
# through the MPI's compiler wrapper (Open MPI's --showme, MPICH's
# -compile_info/-link_info). Installs Open MPI from Debian when missing
# and allowed, like the libraries of the *.list files.
mpi_flags() { # compile|link
	if mpicc --showme:"$1" >/dev/null 2>&1; then mpicc --showme:"$1"
	else mpicc -"$1"_info 2>/dev/null | cut -d' ' -f2-; fi
}
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
	try_install openmpi-bin; try_install libopenmpi-dev
fi
mpi_cflags=$(mpi_flags compile 2>/dev/null); mpi_libs=$(mpi_flags link 2>/dev/null)
if [ -z "$CROSS" ] && command -v mpicc >/dev/null 2>&1 &&
	printf '#include <mpi.h>\nint main(void){return PMPI_Finalize();}\n' |
	$CC $mpi_cflags -x c - -o /dev/null $mpi_libs >/dev/null 2>&1; then
	if command -v mpif90 >/dev/null 2>&1 && mpif90 --version >/dev/null 2>&1; then
		echo "MPIFC := mpif90"
	else
		echo "configure: note: no mpif90: the Fortran MPI tests are left out" >&2
	fi
	echo "HAVE_MPI := 1"
	echo "MPI_CFLAGS := $mpi_cflags"
	echo "MPI_LIBS := $mpi_libs"
	echo "MPICC := mpicc"
else
	echo "configure: note: no usable MPI (Debian packages openmpi-bin, libopenmpi-dev): building without libpmkit-mpi" >&2
	echo "HAVE_MPI :="
fi
