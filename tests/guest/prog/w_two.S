/*
 * w_two.S: a whole program (no C library) that spends its time in two
 * functions in a 4:1 ratio, for sampling in the guest.
 *
 *   hot:  4,000,000 iterations (8,000,000 instructions)
 *   cold: 1,000,000 iterations (2,000,000 instructions)
 *
 * At -icount shift=0 a user cycle is a user instruction, so sampling
 * cycles:u with period 100000 gives exactly 80 samples on hot's loop (line
 * of `hot_loop`) and 20 on cold's (`cold_loop`).
 */
	.text
	.globl _start
	.type _start, %function
_start:
	movz x0, #0x0900
	movk x0, #0x3d, lsl #16		/* 4000000 */
	bl hot
	movz x0, #0x4240
	movk x0, #0xf, lsl #16		/* 1000000 */
	bl cold
	mov x0, #0
	mov x8, #93			/* exit */
	svc #0
	.size _start, . - _start

	.globl hot
	.type hot, %function
hot:
hot_loop:
	subs x0, x0, #1
	b.ne hot_loop
	ret
	.size hot, . - hot

	.globl cold
	.type cold, %function
cold:
cold_loop:
	subs x0, x0, #1
	b.ne cold_loop
	ret
	.size cold, . - cold
	.section .note.GNU-stack, "", %progbits
