#include "textflag.h"

// func indexPair(buf []byte, a1, a2, c1, c2 byte, d int) int
//
// Returns the smallest i such that buf[i] is a1 or a2 and buf[i+d] is c1
// or c2, or -1. Requires d >= 0. SSE2 only (baseline amd64): 16 starting
// positions per iteration.
TEXT ·indexPair(SB), NOSPLIT, $0-48
	MOVQ buf_base+0(FP), SI
	MOVQ buf_len+8(FP), BX
	MOVQ d+32(FP), DX

	MOVBLZX a1+24(FP), AX
	MOVD AX, X0
	PUNPCKLBW X0, X0
	PSHUFLW $0, X0, X0
	PUNPCKLQDQ X0, X0
	MOVBLZX a2+25(FP), AX
	MOVD AX, X1
	PUNPCKLBW X1, X1
	PSHUFLW $0, X1, X1
	PUNPCKLQDQ X1, X1
	MOVBLZX c1+26(FP), AX
	MOVD AX, X2
	PUNPCKLBW X2, X2
	PSHUFLW $0, X2, X2
	PUNPCKLQDQ X2, X2
	MOVBLZX c2+27(FP), AX
	MOVD AX, X3
	PUNPCKLBW X3, X3
	PSHUFLW $0, X3, X3
	PUNPCKLQDQ X3, X3

	MOVQ BX, R8
	SUBQ DX, R8 // R8: number of starting positions
	JLE notfound
	LEAQ (SI)(DX*1), R10 // second byte base
	XORQ DI, DI

loop:
	LEAQ 16(DI), R9
	CMPQ R9, R8
	JA tail
	MOVOU (SI)(DI*1), X4
	MOVOU X4, X5
	PCMPEQB X0, X4
	PCMPEQB X1, X5
	POR X5, X4
	MOVOU (R10)(DI*1), X6
	MOVOU X6, X7
	PCMPEQB X2, X6
	PCMPEQB X3, X7
	POR X7, X6
	PAND X6, X4
	PMOVMSKB X4, R11
	TESTL R11, R11
	JNZ found
	MOVQ R9, DI
	JMP loop

found:
	BSFL R11, R11
	ADDQ R11, DI
	MOVQ DI, ret+40(FP)
	RET

tail:
	CMPQ DI, R8
	JAE notfound
	MOVBLZX (SI)(DI*1), AX
	CMPB AL, a1+24(FP)
	JEQ first
	CMPB AL, a2+25(FP)
	JNE next
first:
	MOVBLZX (R10)(DI*1), AX
	CMPB AL, c1+26(FP)
	JEQ match
	CMPB AL, c2+27(FP)
	JEQ match
next:
	INCQ DI
	JMP tail
match:
	MOVQ DI, ret+40(FP)
	RET

notfound:
	MOVQ $-1, ret+40(FP)
	RET
