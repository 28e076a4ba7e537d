module example.com/testcycle/gosample

go 1.19
