package workload

import "fmt"

// Shape is the size of a benchmark group: Topics topics of Partitions
// partitions each, and Members members.
type Shape struct {
	Topics     int `json:"topics"`
	Partitions int `json:"partitions"`
	Members    int `json:"members"`
}

// Total is the number of partitions in the shape.
func (s Shape) Total() int { return s.Topics * s.Partitions }

// Short names the shape by its partition count: "1k", "10k", "1M".
func (s Shape) Short() string {
	n := s.Total()
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// String renders the shape as the results tables show it: "10x100/50 (1k)".
func (s Shape) String() string {
	return fmt.Sprintf("%dx%d/%d (%s)", s.Topics, s.Partitions, s.Members, s.Short())
}

// Shapes returns the default benchmark shapes, smallest first: 1k, 10k, 40k
// and 100k partitions. The slice is the caller's.
func Shapes() []Shape {
	return []Shape{
		{Topics: 10, Partitions: 100, Members: 50},
		{Topics: 20, Partitions: 500, Members: 100},
		{Topics: 50, Partitions: 800, Members: 800},
		{Topics: 100, Partitions: 1000, Members: 1000},
	}
}

// FullShape returns the one-million-partition shape: 500 topics of 2,000
// partitions and 2,000 members (`go run ./bench -full` adds it).
func FullShape() Shape { return Shape{Topics: 500, Partitions: 2000, Members: 2000} }

// GrowthShapes returns the growth series: 1,000 members subscribed to 100
// topics of 100, 1,000, 3,000 and 10,000 partitions (10k to 1M partitions),
// so that only the partition count changes. The slice is the caller's.
func GrowthShapes() []Shape {
	var out []Shape
	for _, n := range []int{100, 1000, 3000, 10000} {
		out = append(out, Shape{Topics: 100, Partitions: n, Members: 1000})
	}
	return out
}
