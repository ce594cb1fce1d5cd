/* ggn._native: the CPython binding of the kernel (kernel.c).
 *
 * A game is a capsule made from its tables (int32 values in any object with the buffer
 * protocol: ggn.rules._native passes an array('i')); a position is another such buffer. The
 * kernel runs with the GIL released: a game is read-only once made, and each call has its own
 * search state. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel.h"
#include "lines.h"
#include "playout.h"

#define CAPSULE "ggn._native.game"

static PyObject *abi_version(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromLong(ggn_kernel_abi());
}

static void game_destroy(PyObject *capsule) {
    ggn_game *game = PyCapsule_GetPointer(capsule, CAPSULE);
    if (game) ggn_game_free(game);
}

/* An int32 buffer (format 'i' or 'l' of 4 bytes, C-contiguous). */
static int int32_buffer(PyObject *obj, Py_buffer *view, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *f = view->format ? view->format : "B";
    if (view->itemsize != 4 || !(strcmp(f, "i") == 0 || strcmp(f, "=i") == 0 || strcmp(f, "l") == 0)) {
        PyErr_Format(PyExc_TypeError, "%s must be a buffer of 32-bit ints, got format %s", what, f);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *game_new(PyObject *self, PyObject *arg) {
    (void)self;
    Py_buffer view;
    if (int32_buffer(arg, &view, "tables") < 0) return NULL;
    ggn_game *game = NULL;
    char err[256] = {0};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ggn_game_new(view.buf, (size_t)(view.len / 4), &game, err, sizeof err);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (rc == GGN_ENOMEM) return PyErr_NoMemory();
    if (rc != GGN_OK) {
        PyErr_SetString(PyExc_ValueError, err[0] ? err : "bad tables");
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(game, CAPSULE, game_destroy);
    if (!capsule) ggn_game_free(game);
    return capsule;
}

static ggn_game *game_of(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, CAPSULE);
}

static PyObject *failed(int rc) {
    switch (rc) {
    case GGN_ENOMEM: return PyErr_NoMemory();
    case GGN_EBADPOSITION: PyErr_SetString(PyExc_ValueError, "the position does not fit the game's tables"); return NULL;
    case GGN_EOVERFLOW: PyErr_SetString(PyExc_OverflowError, "the kernel's output passed its bound"); return NULL;
    case GGN_EBUSY: PyErr_SetString(PyExc_RecursionError, "the kernel's walk passed its bounds"); return NULL;
    default: PyErr_SetString(PyExc_ValueError, "the kernel failed"); return NULL;
    }
}

static PyObject *perft(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *position;
    int depth;
    if (!PyArg_ParseTuple(args, "OOi", &capsule, &position, &depth)) return NULL;
    ggn_game *game = game_of(capsule);
    if (!game) return NULL;
    Py_buffer view;
    if (int32_buffer(position, &view, "position") < 0) return NULL;
    uint64_t count = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ggn_perft(game, view.buf, (size_t)(view.len / 4), depth, &count);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (rc != GGN_OK) return failed(rc);
    return PyLong_FromUnsignedLongLong(count);
}

/* legal(game, position) -> bytes of int32 pairs (move number, play number). */
static PyObject *legal(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *position;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &position)) return NULL;
    ggn_game *game = game_of(capsule);
    if (!game) return NULL;
    Py_buffer view;
    if (int32_buffer(position, &view, "position") < 0) return NULL;
    size_t cap = 256, found = 0;
    int32_t *out = NULL;
    int rc;
    for (;;) {
        int32_t *bigger = PyMem_Realloc(out, cap * 2 * sizeof(int32_t));
        if (!bigger) { PyMem_Free(out); PyBuffer_Release(&view); return PyErr_NoMemory(); }
        out = bigger;
        Py_BEGIN_ALLOW_THREADS
        rc = ggn_legal(game, view.buf, (size_t)(view.len / 4), out, cap, &found);
        Py_END_ALLOW_THREADS
        if (rc != GGN_EOVERFLOW || found <= cap || found > ((size_t)1 << 26)) break;
        cap = found;
    }
    PyBuffer_Release(&view);
    if (rc != GGN_OK) { PyMem_Free(out); return failed(rc); }
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(found * 2 * sizeof(int32_t)));
    PyMem_Free(out);
    return bytes;
}

/* divide(game, position, depth) -> list of (move number, play number, count). */
static PyObject *divide(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *position;
    int depth;
    if (!PyArg_ParseTuple(args, "OOi", &capsule, &position, &depth)) return NULL;
    ggn_game *game = game_of(capsule);
    if (!game) return NULL;
    Py_buffer view;
    if (int32_buffer(position, &view, "position") < 0) return NULL;
    size_t cap = 256, found = 0;
    int64_t *out = NULL;
    int rc;
    for (;;) {
        int64_t *bigger = PyMem_Realloc(out, cap * 3 * sizeof(int64_t));
        if (!bigger) { PyMem_Free(out); PyBuffer_Release(&view); return PyErr_NoMemory(); }
        out = bigger;
        Py_BEGIN_ALLOW_THREADS
        rc = ggn_divide(game, view.buf, (size_t)(view.len / 4), depth, out, cap, &found);
        Py_END_ALLOW_THREADS
        if (rc != GGN_EOVERFLOW || found <= cap || found > ((size_t)1 << 24)) break;
        cap = found;
    }
    PyBuffer_Release(&view);
    if (rc != GGN_OK) { PyMem_Free(out); return failed(rc); }
    PyObject *list = PyList_New((Py_ssize_t)found);
    for (size_t i = 0; list && i < found; i++) {
        PyObject *item = Py_BuildValue("(LLL)", (long long)out[3 * i], (long long)out[3 * i + 1], (long long)out[3 * i + 2]);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    PyMem_Free(out);
    return list;
}

/* legal_many(game, positions) -> (counts, pairs): the legal plays of each position of a buffer
 * of positions laid end to end (each ggn_position_size values), as bytes of int32: the number
 * of plays of each position, then all the pairs (move, play) in order. */
static PyObject *legal_many(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *positions;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &positions)) return NULL;
    ggn_game *game = game_of(capsule);
    if (!game) return NULL;
    Py_buffer view;
    if (int32_buffer(positions, &view, "positions") < 0) return NULL;
    size_t size = ggn_position_size(game), values = (size_t)(view.len / 4);
    if (values % size) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the positions' buffer is not a whole number of positions");
        return NULL;
    }
    size_t count = values / size, cap = 64 * (count ? count : 1), used = 0;
    int32_t *counts = PyMem_RawMalloc((count ? count : 1) * sizeof(int32_t));
    int32_t *pairs = PyMem_RawMalloc(cap * 2 * sizeof(int32_t));
    int rc = GGN_OK;
    if (!counts || !pairs) { PyMem_RawFree(counts); PyMem_RawFree(pairs); PyBuffer_Release(&view); return PyErr_NoMemory(); }
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        rc = ggn_legal_many(game, view.buf, count, pairs, cap, counts, &used);
        if (rc != GGN_EOVERFLOW || used > ((size_t)1 << 28)) break;
        int32_t *bigger = PyMem_RawRealloc(pairs, used * 2 * sizeof(int32_t));
        if (!bigger) { rc = GGN_ENOMEM; break; }
        pairs = bigger;
        cap = used;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (rc != GGN_OK) { PyMem_RawFree(counts); PyMem_RawFree(pairs); return failed(rc); }
    PyObject *result = Py_BuildValue("(y#y#)", (const char *)counts, (Py_ssize_t)(count * sizeof(int32_t)),
                                     (const char *)pairs, (Py_ssize_t)(used * 2 * sizeof(int32_t)));
    PyMem_RawFree(counts);
    PyMem_RawFree(pairs);
    return result;
}

#define SEARCH "ggn._native.search"

static void search_destroy(PyObject *capsule) {
    ggn_search *search = PyCapsule_GetPointer(capsule, SEARCH);
    if (search) ggn_search_free(search);
    PyObject *game = PyCapsule_GetContext(capsule);
    Py_XDECREF(game);
}

/* searcher(game) -> a search of the game kept open for many calls of listed (its buffers made
 * once); it keeps the game alive. */
static PyObject *searcher(PyObject *self, PyObject *capsule) {
    (void)self;
    ggn_game *game = game_of(capsule);
    if (!game) return NULL;
    ggn_search *search = ggn_search_new(game);
    if (!search) return PyErr_NoMemory();
    PyObject *made = PyCapsule_New(search, SEARCH, search_destroy);
    if (!made) { ggn_search_free(search); return NULL; }
    Py_INCREF(capsule);
    if (PyCapsule_SetContext(made, capsule) < 0) { Py_DECREF(capsule); Py_DECREF(made); return NULL; }
    return made;
}

/* listed(search, position, hand_order, ranks, bases, strings): the legal plays of a position in
 * the pure path's order (lines.c), written: a list of str, strings[bases[move] + play] each
 * (a move's strings are strings[bases[move]:bases[move + 1]]). Where a play's string is not
 * there (None, or past its move's range), the ordered pairs as bytes of int32 instead; where a
 * move's rank is not known (ranks[move] < 0), that move's number (an int). */
/* The listing of a position read already (listed and read_listed). */
static PyObject *list_core(ggn_search *search, const ggn_game *game, const int32_t *position, size_t plen,
                           const Py_buffer *hand, const Py_buffer *ranks, const Py_buffer *bases_view,
                           PyObject *strings) {
    PyObject *result = NULL;
    int32_t stack[2 * 256];
    int32_t *out = stack;
    size_t cap = 256, found = 0;
    int rc;
    for (;;) {
        rc = ggn_search_legal(search, position, plen, out, cap, &found);
        if (rc != GGN_EOVERFLOW || found <= cap || found > ((size_t)1 << 26)) break;
        int32_t *bigger = PyMem_Malloc(found * 2 * sizeof(int32_t));
        if (!bigger) { rc = GGN_ENOMEM; break; }
        if (out != stack) PyMem_Free(out);
        out = bigger;
        cap = found;
    }
    if (rc != GGN_OK) { failed(rc); goto done; }
    int32_t missing = -1;
    rc = ggn_order_plays(game, out, found, ranks->buf, (size_t)(ranks->len / 4), hand->buf, (size_t)(hand->len / 4),
                         &missing);
    if (rc != GGN_OK) { failed(rc); goto done; }
    if (missing >= 0) { result = PyLong_FromLong(missing); goto done; }
    const int32_t *bases = bases_view->buf;
    size_t nbases = (size_t)(bases_view->len / 4);
    Py_ssize_t known = PyList_GET_SIZE(strings);
    result = PyList_New((Py_ssize_t)found);
    if (!result) goto done;
    for (size_t i = 0; i < found; i++) {
        int32_t move = out[2 * i], play = out[2 * i + 1];
        PyObject *text = NULL;
        if (move >= 0 && (size_t)move + 1 < nbases) {
            int64_t at = (int64_t)bases[move] + play;
            if (at >= bases[move] && at < bases[move + 1] && at < known) text = PyList_GET_ITEM(strings, (Py_ssize_t)at);
        }
        if (!text || !PyUnicode_CheckExact(text)) {
            Py_DECREF(result);
            result = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(found * 2 * sizeof(int32_t)));
            goto done;
        }
        Py_INCREF(text);
        PyList_SET_ITEM(result, (Py_ssize_t)i, text);
    }
done:
    if (out != stack) PyMem_Free(out);
    return result;
}

static int search_args(PyObject *capsule, PyObject *strings, ggn_search **search, ggn_game **game) {
    *search = PyCapsule_GetPointer(capsule, SEARCH);
    if (!*search) return -1;
    *game = game_of(PyCapsule_GetContext(capsule));
    if (!*game) return -1;
    if (!PyList_Check(strings)) {
        PyErr_SetString(PyExc_TypeError, "strings must be a list");
        return -1;
    }
    return 0;
}

static PyObject *listed(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "listed takes 6 arguments");
        return NULL;
    }
    ggn_search *search;
    ggn_game *game;
    if (search_args(args[0], args[5], &search, &game) < 0) return NULL;
    Py_buffer views[4];
    const char *names[4] = {"position", "hand_order", "ranks", "bases"};
    int held = 0;
    for (; held < 4; held++)
        if (int32_buffer(args[1 + held], &views[held], names[held]) < 0) break;
    PyObject *result = NULL;
    if (held == 4)
        result = list_core(search, game, views[0].buf, (size_t)(views[0].len / 4), &views[1], &views[2], &views[3], args[5]);
    for (int v = 0; v < held; v++) PyBuffer_Release(&views[v]);
    return result;
}

/* read_listed(search, table, text, ranks, bases, strings, position, hand_order): the line ``text``
 * (a str) read as FEN by ggn_read_fen with ``table`` into ``position`` and ``hand_order``
 * (writable int32 buffers, kept by the caller), then listed as listed() lists it; None where the
 * reader is not sure of the line (the Python reader reads it). */
static PyObject *read_listed(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "read_listed takes 8 arguments");
        return NULL;
    }
    ggn_search *search;
    ggn_game *game;
    if (search_args(args[0], args[5], &search, &game) < 0) return NULL;
    if (!PyUnicode_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "text must be a str");
        return NULL;
    }
    Py_ssize_t length;
    const char *text = PyUnicode_AsUTF8AndSize(args[2], &length);
    if (!text) return NULL;
    Py_buffer views[5];
    PyObject *objects[5] = {args[1], args[3], args[4], args[6], args[7]};
    const char *names[5] = {"table", "ranks", "bases", "position", "hand_order"};
    int held = 0;
    for (; held < 5; held++)
        if (int32_buffer(objects[held], &views[held], names[held]) < 0) break;
    PyObject *result = NULL;
    if (held == 5) {
        if (views[3].readonly || views[4].readonly) {
            PyErr_SetString(PyExc_TypeError, "position and hand_order must be writable");
        } else {
            int read = ggn_read_fen(views[0].buf, (size_t)(views[0].len / 4), text, (size_t)length, views[3].buf,
                                    (size_t)(views[3].len / 4), views[4].buf, (size_t)(views[4].len / 4));
            if (read < 0) PyErr_SetString(PyExc_ValueError, "the FEN reader's table does not fit the game");
            else if (read == 0) result = Py_NewRef(Py_None);
            else result = list_core(search, game, views[3].buf, (size_t)(views[3].len / 4), &views[4], &views[1],
                                    &views[2], args[5]);
        }
    }
    for (int v = 0; v < held; v++) PyBuffer_Release(&views[v]);
    return result;
}

/* playout(game, tables, position, seed, first, games, policy, max_plies, rule50, moves) ->
 * (results, pairs): bytes of int32, three a game (winner: 0 first, 1 second, 2 draw, 3 none;
 * ending; length), and with moves the (move, play) pairs of every game in turn (else None). */
static PyObject *playout(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *tables, *position;
    unsigned long long seed, first, games;
    int policy, max_plies, rule50, want;
    if (!PyArg_ParseTuple(args, "OOOKKKiiip", &capsule, &tables, &position, &seed, &first, &games, &policy,
                          &max_plies, &rule50, &want))
        return NULL;
    ggn_game *game = game_of(capsule);
    if (!game) return NULL;
    if (games > ((unsigned long long)1 << 32)) {
        PyErr_SetString(PyExc_ValueError, "too many games for one call of the kernel");
        return NULL;
    }
    Py_buffer tview, pview;
    if (int32_buffer(tables, &tview, "tables") < 0) return NULL;
    if (int32_buffer(position, &pview, "position") < 0) { PyBuffer_Release(&tview); return NULL; }
    int32_t *out = PyMem_RawMalloc(((size_t)games ? (size_t)games : 1) * 3 * sizeof(int32_t));
    if (!out) { PyBuffer_Release(&tview); PyBuffer_Release(&pview); return PyErr_NoMemory(); }
    ggn_moves moves = {NULL, 0, 0};
    char err[256] = {0};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ggn_playout(game, tview.buf, (size_t)(tview.len / 4), pview.buf, (size_t)(pview.len / 4), seed, first,
                     (size_t)games, policy, max_plies, rule50, out, want ? &moves : NULL, err, sizeof err);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&tview);
    PyBuffer_Release(&pview);
    if (rc != GGN_OK) {
        PyMem_RawFree(out);
        free(moves.pairs);
        if (rc == GGN_EBADTABLE) {
            PyErr_SetString(PyExc_ValueError, err[0] ? err : "bad playout tables");
            return NULL;
        }
        return failed(rc);
    }
    PyObject *result = Py_BuildValue("(y#O)", (const char *)out, (Py_ssize_t)((size_t)games * 3 * sizeof(int32_t)),
                                     Py_None);
    PyMem_RawFree(out);
    if (result && want) {
        PyObject *pairs = PyBytes_FromStringAndSize(moves.pairs ? (const char *)moves.pairs : "",
                                                    (Py_ssize_t)(moves.used * 2 * sizeof(int32_t)));
        if (!pairs) Py_CLEAR(result);
        else PyTuple_SetItem(result, 1, pairs); /* steals pairs; drops the None */
    }
    free(moves.pairs);
    return result;
}

/* ended(game, position) -> (end, value): whether the game has ended before the side to move
 * plays, by the tables' ends (0 not, 1 an extinction, 2 a flag region), and the result for the
 * side to move (1 a win, 0 a draw, -1 a loss). */
static PyObject *ended(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *position;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &position)) return NULL;
    ggn_game *game = game_of(capsule);
    if (!game) return NULL;
    Py_buffer view;
    if (int32_buffer(position, &view, "position") < 0) return NULL;
    int end = 0, value = 0, rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ggn_ended(game, view.buf, (size_t)(view.len / 4), &end, &value);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (rc != GGN_OK) return failed(rc);
    return Py_BuildValue("(ii)", end, value);
}

static PyMethodDef methods[] = {
    {"abi_version", abi_version, METH_NOARGS, "The version of the tables' layout the kernel reads."},
    {"game", game_new, METH_O, "game(tables) -> a game read from its tables (int32 buffer)."},
    {"perft", perft, METH_VARARGS, "perft(game, position, depth) -> the number of legal paths."},
    {"legal", legal, METH_VARARGS, "legal(game, position) -> int32 pairs (move, play) as bytes."},
    {"legal_many", legal_many, METH_VARARGS, "legal_many(game, positions) -> (counts, pairs) as bytes of int32."},
    {"searcher", searcher, METH_O, "searcher(game) -> a search kept open for listed."},
    {"listed", (PyCFunction)(void (*)(void))listed, METH_FASTCALL,
     "listed(search, position, hand_order, ranks, bases, strings) -> [str] | bytes | int."},
    {"read_listed", (PyCFunction)(void (*)(void))read_listed, METH_FASTCALL,
     "read_listed(search, table, text, ranks, bases, strings, position, hand_order) -> [str] | bytes | int | None."},
    {"divide", divide, METH_VARARGS, "divide(game, position, depth) -> [(move, play, count)]."},
    {"playout", playout, METH_VARARGS,
     "playout(game, tables, position, seed, first, games, policy, max_plies, rule50, moves) -> (results, pairs)."},
    {"ended", ended, METH_VARARGS, "ended(game, position) -> (end, value): the game's end before the move."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "ggn._native", "The native kernel of ggn (C).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
