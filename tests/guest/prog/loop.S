/*
 * loop.S: instruction sequences whose counts are known exactly, for the
 * guest tests (aarch64 only).
 *
 *   g_loop(n)          cbz; n x (subs; b.ne); ret = 2n + 2 instructions
 *                      (n = 0: cbz taken, ret: 2)
 *   g_count_loop(fd,n) enables perf event group `fd` with a raw ioctl
 *                      system call, runs the loop, and disables the group.
 *                      User instructions counted: 1 + 2n (cbz and the loop)
 *                      plus the 4 instructions that set up the disabling
 *                      ioctl and the svc itself (see docs/guest.md).
 * g_loop_body and g_loop_end bound the loop's instructions for sample IPs.
 */
	.text
	.globl g_loop
	.type g_loop, %function
g_loop:
	cbz x0, 2f
1:	subs x0, x0, #1
	b.ne 1b
2:	ret
	.size g_loop, . - g_loop

	.globl g_count_loop
	.globl g_loop_body
	.globl g_loop_end
	.type g_count_loop, %function
g_count_loop:
	mov x9, x0
	mov x10, x1
	mov x1, #0x2400		/* PERF_EVENT_IOC_ENABLE */
	mov x2, #1		/* PERF_IOC_FLAG_GROUP */
	mov x8, #29		/* __NR_ioctl */
	svc #0
	cbz x10, 2f		/* first counted instruction */
g_loop_body:
1:	subs x10, x10, #1
	b.ne 1b
2:	mov x0, x9
g_loop_end:
	mov x1, #0x2401		/* PERF_EVENT_IOC_DISABLE */
	mov x2, #1
	mov x8, #29
	svc #0			/* last counted instruction, if any */
	ret
	.size g_count_loop, . - g_count_loop
	.section .note.GNU-stack, "", %progbits
