module example.com/testcycle/gosample/runerrors

go 1.19
