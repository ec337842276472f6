// Wire is an SDK type as its JSON is written: a value of the Gemini SDK's
// Type enum is the enum's string ("OBJECT", "STRING", …), which TypeScript
// does not let a string literal stand for. Everything else keeps the SDK's
// own shape, so unknown fields and wrong values are still refused.
import type { Type } from "@google/genai";

export type Wire<T> = T extends Type
	? `${Type}`
	: T extends (infer U)[]
		? Wire<U>[]
		: T extends object
			? { [K in keyof T]: Wire<T[K]> }
			: T;
