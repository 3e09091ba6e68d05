module github.com/kgroup/assignor

go 1.24

require pgregory.net/rapid v1.3.0
