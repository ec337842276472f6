module example.com/lspdemo

go 1.22
