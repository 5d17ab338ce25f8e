module github.com/gpuplan/gpuplan

go 1.23

require (
	github.com/google/go-cmp v0.7.0
	github.com/shopspring/decimal v1.4.0
	pgregory.net/rapid v1.3.0
)
