package notebook_test

import (
	"fmt"

	"github.com/hands-dev/hands/internal/notebook"
)

func ExampleApply() {
	nb := []byte(`{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "id": "a1",
   "metadata": {},
   "outputs": [],
   "source": [
    "x = 1"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`)
	out, res, err := notebook.Apply(nb, notebook.Edit{Mode: notebook.Replace, CellID: "a1", CellType: "markdown", Source: "# Title\nText"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n%s", res, out)
	// Output:
	// {Index:0 ID:a1 Type:markdown}
	// {
	//  "cells": [
	//   {
	//    "cell_type": "markdown",
	//    "id": "a1",
	//    "metadata": {},
	//    "source": [
	//     "# Title\n",
	//     "Text"
	//    ]
	//   }
	//  ],
	//  "metadata": {},
	//  "nbformat": 4,
	//  "nbformat_minor": 5
	// }
}
