package main

import (
	"fmt"

	"example.com/lspdemo/greet"
	"example.com/lspdemo/shape"
)

func main() {
	fmt.Println(greet.Hello("world"))
	report(shape.Square{Side: 2})
}

func report(s shape.Shape) {
	fmt.Println(greet.Hello("area"), s.Area())
}
