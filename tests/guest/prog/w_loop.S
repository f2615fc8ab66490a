/*
 * w_loop.S: a whole program (no C library) whose user-space instruction
 * count is known exactly, for `pmkit stat` in the guest.
 *
 *   w_loop [ARG...]   runs 1,000,000 x (number of ARGs) loop iterations
 *
 * Instructions retired at EL0 from exec to exit: 2 x iterations + 9
 * (ldr, sub, movz, movk, mul; cbz; mov, mov, svc: docs/guest.md).
 */
	.text
	.globl _start
	.type _start, %function
_start:
	ldr x0, [sp]			/* argc */
	sub x0, x0, #1
	movz x1, #0x4240
	movk x1, #0xf, lsl #16		/* 1000000 */
	mul x0, x0, x1
	cbz x0, 2f
1:	subs x0, x0, #1
	b.ne 1b
2:	mov x0, #0
	mov x8, #93			/* exit */
	svc #0
	.size _start, . - _start
	.section .note.GNU-stack, "", %progbits
