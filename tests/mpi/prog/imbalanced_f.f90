! imbalanced_f.f90: the Fortran test program of tests/mpi/mpi.t (mpif.h).
! Rank k computes (k + 1) x 30 ms inside region "work" (2 rounds, each
! followed by MPI_BARRIER), then sends 5 messages of 100 integers (400
! bytes) to the next rank with MPI_SEND and receives 5 with MPI_RECV
! (even ranks send first), then one MPI_ALLREDUCE. It prints the time it
! spent outside MPI calls before the last MPI_BARRIER (from each call's
! return to the next call), after MPI_FINALIZE: "truth: rank K compute S".
program imbalanced_f
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nranks, r, m, nxt, prv
  integer :: sbuf(100), rbuf(100), status(MPI_STATUS_SIZE)
  double precision :: t0, tl, x, one, s, comp
  call MPI_INIT(ierr)
  tl = MPI_WTIME()
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  nxt = mod(rank + 1, nranks)
  prv = mod(rank + nranks - 1, nranks)
  x = 1.0d0
  comp = 0
  do r = 1, 2
    call MPI_PCONTROL(1, "work")
    t0 = MPI_WTIME()
    do while (MPI_WTIME() - t0 < 0.030d0 * (rank + 1))
      x = x * 1.0000001d0 + 1.0d-9
    end do
    call MPI_PCONTROL(-1, "work")
    comp = comp + (MPI_WTIME() - tl)
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    tl = MPI_WTIME()
  end do
  sbuf = rank
  do m = 1, 5
    if (mod(rank, 2) == 0) then
      call MPI_SEND(sbuf, 100, MPI_INTEGER, nxt, m, MPI_COMM_WORLD, ierr)
      call MPI_RECV(rbuf, 100, MPI_INTEGER, prv, m, MPI_COMM_WORLD, status, ierr)
    else
      call MPI_RECV(rbuf, 100, MPI_INTEGER, prv, m, MPI_COMM_WORLD, status, ierr)
      call MPI_SEND(sbuf, 100, MPI_INTEGER, nxt, m, MPI_COMM_WORLD, ierr)
    end if
  end do
  one = 1.0d0
  call MPI_ALLREDUCE(one, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
  if (x < 0) print *, x
  print '(a,i0,a,f9.6)', 'truth: rank ', rank, ' compute ', comp
end program imbalanced_f
