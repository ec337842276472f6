// Package shape has shapes with areas.
package shape

// Shape is anything with an area.
type Shape interface {
	Area() float64
}

// Square is a square.
type Square struct{ Side float64 }

// Area is the square's area.
func (s Square) Area() float64 { return s.Side * s.Side }

// Circle is a circle.
type Circle struct{ R float64 }

// Area is the circle's area.
func (c Circle) Area() float64 { return 3 * c.R * c.R }
