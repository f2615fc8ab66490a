! rmaio_f.f90: persistent requests, one-sided communication and MPI-IO
! from Fortran (mpif.h), for tests/mpi/mpi.t: rmaio.c's pattern, 10 steps:
! a ring of persistent requests (MPI_SEND_INIT to rank + 1, 250 integers,
! 1,000 bytes; MPI_RECV_INIT; MPI_STARTALL; MPI_WAITALL), an MPI_PUT of 64
! doubles to rank + 1 between two MPI_WIN_FENCE, then each rank writes its
! 4 KiB block of FILE (the first argument) with MPI_FILE_WRITE_AT_ALL and
! reads it back with MPI_FILE_READ_AT. Its counts are fixed: mpi.t knows
! them (Startall 10 x 1,000 bytes each way, Put 10 x 512 bytes, pairs
! rank -> rank + 1 of 20 calls and 15,120 bytes).
program rmaio_f
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nranks, nxt, prv, s, win, fh
  integer :: req(2), sbuf(250), rbuf(250), io(1024)
  integer :: statuses(MPI_STATUS_SIZE, 2), status(MPI_STATUS_SIZE)
  double precision :: put(64), wbuf(64)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
  integer(kind=MPI_OFFSET_KIND) :: off
  character(len=4096) :: path
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, path)
  nxt = mod(rank + 1, nranks)
  prv = mod(rank + nranks - 1, nranks)
  sbuf = rank
  put = 1.0d0
  io = rank
  call MPI_SEND_INIT(sbuf, 250, MPI_INTEGER, nxt, 1, MPI_COMM_WORLD, req(1), ierr)
  call MPI_RECV_INIT(rbuf, 250, MPI_INTEGER, prv, 1, MPI_COMM_WORLD, req(2), ierr)
  wsize = 64 * 8
  call MPI_WIN_CREATE(wbuf, wsize, 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  disp = 0
  do s = 1, 10
    call MPI_STARTALL(2, req, ierr)
    call MPI_WAITALL(2, req, statuses, ierr)
    call MPI_WIN_FENCE(0, win, ierr)
    call MPI_PUT(put, 64, MPI_DOUBLE_PRECISION, nxt, disp, 64, MPI_DOUBLE_PRECISION, win, ierr)
    call MPI_WIN_FENCE(0, win, ierr)
  end do
  call MPI_REQUEST_FREE(req(1), ierr)
  call MPI_REQUEST_FREE(req(2), ierr)
  call MPI_WIN_FREE(win, ierr)
  call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, &
                     MPI_INFO_NULL, fh, ierr)
  off = rank * 4096
  call MPI_FILE_WRITE_AT_ALL(fh, off, io, 1024, MPI_INTEGER, status, ierr)
  call MPI_FILE_READ_AT(fh, off, io, 1024, MPI_INTEGER, status, ierr)
  call MPI_FILE_CLOSE(fh, ierr)
  call MPI_FINALIZE(ierr)
end program rmaio_f
