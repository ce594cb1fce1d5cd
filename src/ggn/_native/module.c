/* ggn._native: the CPython binding of the kernel (kernel.c). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel.h"

static PyObject *abi_version(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromLong(ggn_kernel_abi());
}

static PyMethodDef methods[] = {
    {"abi_version", abi_version, METH_NOARGS, "The version of the tables' layout the kernel reads."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "ggn._native", "The native kernel of ggn (C).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
