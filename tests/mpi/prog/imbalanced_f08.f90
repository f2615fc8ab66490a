! imbalanced_f08.f90: the mpi_f08 test program of tests/mpi/mpi.t.
! Rank k computes (k + 1) x 30 ms (2 rounds, each followed by MPI_Barrier),
! then sends 5 messages of 100 integers (400 bytes) to the next rank with
! MPI_Send and receives 5 with MPI_Recv (even ranks send first; odd ranks
! pass MPI_STATUS_IGNORE, even ranks a status), then one MPI_Allreduce.
! The error arguments are left out, as mpi_f08 allows. It prints the time
! it spent outside MPI calls before the last MPI_Barrier (from each call's
! return to the next call), after MPI_Finalize: "truth: rank K compute S".
program imbalanced_f08
  use mpi_f08
  implicit none
  integer :: rank, nranks, r, m, nxt, prv
  integer :: sbuf(100), rbuf(100)
  type(MPI_Status) :: status
  double precision :: t0, tl, x, one, s, comp
  call MPI_Init()
  tl = MPI_Wtime()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  nxt = mod(rank + 1, nranks)
  prv = mod(rank + nranks - 1, nranks)
  x = 1.0d0
  comp = 0
  do r = 1, 2
    t0 = MPI_Wtime()
    do while (MPI_Wtime() - t0 < 0.030d0 * (rank + 1))
      x = x * 1.0000001d0 + 1.0d-9
    end do
    comp = comp + (MPI_Wtime() - tl)
    call MPI_Barrier(MPI_COMM_WORLD)
    tl = MPI_Wtime()
  end do
  sbuf = rank
  do m = 1, 5
    if (mod(rank, 2) == 0) then
      call MPI_Send(sbuf, 100, MPI_INTEGER, nxt, m, MPI_COMM_WORLD)
      call MPI_Recv(rbuf, 100, MPI_INTEGER, prv, m, MPI_COMM_WORLD, status)
    else
      call MPI_Recv(rbuf, 100, MPI_INTEGER, prv, m, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      call MPI_Send(sbuf, 100, MPI_INTEGER, nxt, m, MPI_COMM_WORLD)
    end if
  end do
  one = 1.0d0
  call MPI_Allreduce(one, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Finalize()
  ! printed after MPI_Finalize: the time to print is the program's own,
  ! outside both its compute figure and the library's window
  if (x < 0) print *, x
  print '(a,i0,a,f9.6)', 'truth: rank ', rank, ' compute ', comp
end program imbalanced_f08
