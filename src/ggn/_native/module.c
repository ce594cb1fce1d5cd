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

/* pseudo(game, position, tracked=False) -> ([(move, plays, (legal play numbers...))], [(source,
 * plays, ((move, plays), ...), set)]) | None: the pseudo-legal moves a playout draws among
 * (ggn_search_pseudo) with each one's legal plays (ggn_search_try), and the same told by
 * source as a playout reads them (ggn_search_pseudo_groups, each group's moves by
 * ggn_search_pseudo_moves, and where the kernel knows a group as a set of destinations,
 * ggn_search_pseudo_set, its ((destination, move by ggn_search_pseudo_onto), ...), else None);
 * None where the game's plays are not each legal alone. ``tracked``: on a search that keeps
 * its squares (ggn_search_track), as a playout's. For the tests. */
static PyObject *pseudo(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *position;
    int tracked = 0;
    if (!PyArg_ParseTuple(args, "OO|p", &capsule, &position, &tracked)) return NULL;
    ggn_game *game = game_of(capsule);
    if (!game) return NULL;
    if (!ggn_plays_alone(game)) Py_RETURN_NONE;
    Py_buffer view;
    if (int32_buffer(position, &view, "position") < 0) return NULL;
    ggn_search *search = ggn_search_new(game);
    size_t cap = 4096, found = 0, tried = 0, ngroups = 0, first = 0;
    int32_t *out = PyMem_Malloc(3 * cap * sizeof(int32_t)), *plays = PyMem_Malloc(2 * cap * sizeof(int32_t));
    int32_t *groups = PyMem_Malloc(3 * cap * sizeof(int32_t));
    PyObject *list = NULL, *told = NULL;
    int rc = !search || !out || !plays || !groups ? GGN_ENOMEM : ggn_search_load(search, view.buf, (size_t)(view.len / 4));
    if (rc == GGN_OK && tracked) rc = ggn_search_track(search);
    if (rc == GGN_OK) rc = ggn_search_pseudo(search, out, cap, &found);
    if (rc == GGN_OK) rc = ggn_search_pseudo_groups(search, groups, cap, &ngroups);
    if (rc == GGN_OK && !(told = PyList_New(0))) rc = GGN_ENOMEM;
    for (size_t g = 0; rc == GGN_OK && g < ngroups; g++) { /* each group's moves, in turn */
        size_t count = (size_t)groups[3 * g + 2];
        if (count > cap || (rc = ggn_search_pseudo_moves(search, first, count, plays)) != GGN_OK) {
            rc = rc == GGN_OK ? GGN_EOVERFLOW : rc;
            break;
        }
        first += count;
        PyObject *moves = PyTuple_New((Py_ssize_t)count);
        for (size_t j = 0; moves && j < count; j++) {
            PyObject *pair = Py_BuildValue("(ii)", plays[2 * j], plays[2 * j + 1]);
            if (!pair) Py_CLEAR(moves);
            else PyTuple_SET_ITEM(moves, (Py_ssize_t)j, pair);
        }
        uint64_t set[4];
        int is_set = 0;
        PyObject *onto = NULL;
        if (moves && (rc = ggn_search_pseudo_set(search, g, set, 4, &is_set)) == GGN_OK) {
            onto = is_set ? PyList_New(0) : Py_NewRef(Py_None);
            for (int32_t d = 0; is_set && onto && d < 256; d++) {
                int32_t move = -1;
                if (!(set[d >> 6] >> (d & 63) & 1)) continue;
                if ((rc = ggn_search_pseudo_onto(search, g, d, &move)) != GGN_OK) { Py_CLEAR(onto); break; }
                PyObject *pair = Py_BuildValue("(ii)", d, move);
                if (!pair || PyList_Append(onto, pair) < 0) Py_CLEAR(onto);
                Py_XDECREF(pair);
            }
        }
        if (rc != GGN_OK) { Py_XDECREF(moves); Py_XDECREF(onto); break; }
        PyObject *item = NULL; /* (N: the values are the tuple's, or released, either way) */
        if (moves && onto) item = Py_BuildValue("(iiNN)", groups[3 * g], groups[3 * g + 1], moves, onto);
        else { Py_XDECREF(moves); Py_XDECREF(onto); }
        if (!item || PyList_Append(told, item) < 0) { Py_XDECREF(item); rc = GGN_ENOMEM; break; }
        Py_DECREF(item);
    }
    if (rc == GGN_OK) list = PyList_New(0);
    for (size_t i = 0; rc == GGN_OK && list && i < found; i++) {
        rc = ggn_search_try(search, out[3 * i], plays, cap, &tried);
        if (rc != GGN_OK) break;
        PyObject *numbers = PyTuple_New((Py_ssize_t)tried);
        for (size_t j = 0; numbers && j < tried; j++) PyTuple_SET_ITEM(numbers, (Py_ssize_t)j, PyLong_FromLong(plays[2 * j + 1]));
        PyObject *item = numbers ? Py_BuildValue("(iiN)", out[3 * i], out[3 * i + 1], numbers) : NULL;
        if (!item || PyList_Append(list, item) < 0) { Py_XDECREF(item); Py_CLEAR(list); break; }
        Py_DECREF(item);
    }
    PyBuffer_Release(&view);
    ggn_search_free(search);
    PyMem_Free(out);
    PyMem_Free(plays);
    PyMem_Free(groups);
    if (rc != GGN_OK || !list) { Py_XDECREF(list); Py_XDECREF(told); return rc != GGN_OK ? failed(rc) : NULL; }
    return Py_BuildValue("(NN)", list, told);
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
                           PyObject *strings, ggn_move_key *keyed, size_t nkeyed) {
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
    if (keyed)
        rc = ggn_order_keyed(game, keyed, nkeyed, out, found, ranks->buf, (size_t)(ranks->len / 4), hand->buf,
                             (size_t)(hand->len / 4), &missing);
    else
        rc = ggn_order_plays(game, out, found, ranks->buf, (size_t)(ranks->len / 4), hand->buf,
                             (size_t)(hand->len / 4), &missing);
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
        if (keyed) { /* (the pairs' moves were checked by the order) */
            int64_t at = (int64_t)keyed[move].base + play;
            if (play >= 0 && at < keyed[move].end && at < known) text = PyList_GET_ITEM(strings, (Py_ssize_t)at);
        } else if (move >= 0 && (size_t)move + 1 < nbases) {
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
        result = list_core(search, game, views[0].buf, (size_t)(views[0].len / 4), &views[1], &views[2], &views[3], args[5],
                           NULL, 0);
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
                                    &views[2], args[5], NULL, 0);
        }
    }
    for (int v = 0; v < held; v++) PyBuffer_Release(&views[v]);
    return result;
}

/* --- a reader of FEN lines kept for a batch (ggn.rules._lines.Lister.reader) -----------------
 * read_listed's work with what it needs held once: the FEN table checked and copied, the
 * buffers of ranks, bases, position and hand_order held (their items change, never their
 * size: an array exported cannot be resized), each move's source and kind. Its answers() walks
 * the lines of a batch in C: a line that is an ASCII str the reader reads and whose strings are
 * known becomes its Result here; any other line goes to the caller's fallback. */
typedef struct {
    PyObject_HEAD
    PyObject *capsule; /* the search's (it keeps the game) */
    ggn_search *search;
    ggn_game *game;
    ggn_fen *fen;
    PyObject *strings, *resolve;
    Py_buffer views[4]; /* ranks, bases, position, hand_order */
    int held;
    ggn_move_key *moves;
    size_t nmoves;
} ReaderObject;

enum { R_RANKS, R_BASES, R_POSITION, R_HANDS };

static void reader_dealloc(ReaderObject *R) {
    PyObject_GC_UnTrack(R);
    for (int v = 0; v < R->held; v++) PyBuffer_Release(&R->views[v]);
    R->held = 0;
    Py_CLEAR(R->capsule);
    Py_CLEAR(R->strings);
    Py_CLEAR(R->resolve);
    ggn_fen_free(R->fen);
    PyMem_Free(R->moves);
    PyObject_GC_Del(R);
}

static int reader_traverse(ReaderObject *R, visitproc visit, void *arg) {
    Py_VISIT(R->strings);
    Py_VISIT(R->resolve);
    return 0;
}

static int reader_clear(ReaderObject *R) {
    Py_CLEAR(R->resolve);
    return 0;
}

/* The line ``text`` (a str) read and listed: a list of str, or None (the Python reader reads
 * it), an int (a move without its rank) or bytes (a play without its string), as read_listed. */
static PyObject *reader_core(ReaderObject *R, PyObject *text) {
    Py_ssize_t length;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &length);
    if (!utf8) return NULL;
    Py_buffer *v = R->views;
    int read = ggn_fen_read(R->fen, utf8, (size_t)length, v[R_POSITION].buf, (size_t)(v[R_POSITION].len / 4),
                            v[R_HANDS].buf, (size_t)(v[R_HANDS].len / 4));
    if (read < 0) {
        PyErr_SetString(PyExc_ValueError, "the FEN reader's table does not fit the game");
        return NULL;
    }
    if (read == 0) Py_RETURN_NONE;
    return list_core(R->search, R->game, v[R_POSITION].buf, (size_t)(v[R_POSITION].len / 4), &v[R_HANDS],
                     &v[R_RANKS], &v[R_BASES], R->strings, R->moves, R->nmoves);
}

/* reader.listed(text) -> [str] | bytes | int | None: read_listed's answer. */
static PyObject *reader_listed(ReaderObject *R, PyObject *text) {
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "text must be a str");
        return NULL;
    }
    return reader_core(R, text);
}

/* reader.read(text) -> [str] | None: the line's plays written, or None where the Python reader
 * and writer must; a move without its rank or a play without its string goes to resolve(text, got). */
static PyObject *reader_read(ReaderObject *R, PyObject *text) {
    PyObject *got = reader_listed(R, text);
    if (!got || got == Py_None || PyList_CheckExact(got)) return got;
    if (!R->resolve) {
        Py_DECREF(got);
        PyErr_SetString(PyExc_ValueError, "the reader was cleared");
        return NULL;
    }
    PyObject *resolved = PyObject_CallFunctionObjArgs(R->resolve, text, got, NULL);
    Py_DECREF(got);
    return resolved;
}

#define MAX_LINE (1 << 20) /* ggn.batch.MAX_LINE */

typedef struct {
    PyObject_HEAD
    ReaderObject *reader;
    PyObject *lines; /* the iterable, until the first line is asked for */
    PyObject *it;
    PyObject *fallback;
    PyTypeObject *result;
    Py_ssize_t number;
} AnswersObject;

static PyTypeObject ReaderType, AnswersType;

static void answers_dealloc(AnswersObject *A) {
    PyObject_GC_UnTrack(A);
    Py_CLEAR(A->reader);
    Py_CLEAR(A->lines);
    Py_CLEAR(A->it);
    Py_CLEAR(A->fallback);
    Py_CLEAR(A->result);
    PyObject_GC_Del(A);
}

static int answers_traverse(AnswersObject *A, visitproc visit, void *arg) {
    Py_VISIT(A->reader);
    Py_VISIT(A->lines);
    Py_VISIT(A->it);
    Py_VISIT(A->fallback);
    Py_VISIT(A->result);
    return 0;
}

static int answers_clear(AnswersObject *A) {
    Py_CLEAR(A->reader);
    Py_CLEAR(A->lines);
    Py_CLEAR(A->it);
    Py_CLEAR(A->fallback);
    Py_CLEAR(A->result);
    return 0;
}

/* An ASCII character str.strip() strips. */
static inline int ascii_space(Py_UCS1 c) { return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20); }

/* The next line's Result: ggn.batch's _numbered and _results for one line, in C where the line
 * is an ASCII str (not too long) the reader answers, else by fallback(number, line) (a Result,
 * or None for a blank line). */
static PyObject *answers_next(AnswersObject *A) {
    if (!A->reader || !A->fallback || !A->result) return NULL;
    if (!A->it) {
        if (!A->lines) return NULL;
        A->it = PyObject_GetIter(A->lines);
        Py_CLEAR(A->lines);
        if (!A->it) return NULL;
    }
    for (;;) {
        PyObject *line = PyIter_Next(A->it);
        if (!line) return NULL; /* the end, or the iterator's error */
        A->number++;
        if (PyUnicode_CheckExact(line) && PyUnicode_IS_ASCII(line) && PyUnicode_GET_LENGTH(line) <= MAX_LINE) {
            const Py_UCS1 *chars = PyUnicode_1BYTE_DATA(line);
            Py_ssize_t first = 0, end = PyUnicode_GET_LENGTH(line);
            while (first < end && ascii_space(chars[first])) first++;
            while (end > first && ascii_space(chars[end - 1])) end--;
            if (first == end) { /* a blank line: no Result */
                Py_DECREF(line);
                continue;
            }
            PyObject *text;
            if (first == 0 && end == PyUnicode_GET_LENGTH(line)) text = Py_NewRef(line);
            else text = PyUnicode_Substring(line, first, end);
            if (!text) { Py_DECREF(line); return NULL; }
            PyObject *got = reader_core(A->reader, text);
            if (!got) { Py_DECREF(text); Py_DECREF(line); return NULL; }
            if (PyList_CheckExact(got)) {
                PyObject *number = PyLong_FromSsize_t(A->number);
                PyObject *made = number ? A->result->tp_alloc(A->result, 5) : NULL;
                Py_DECREF(line);
                if (!made) { Py_XDECREF(number); Py_DECREF(text); Py_DECREF(got); return NULL; }
                /* (line, text, error, json, value): ggn.batch.Result's layout */
                PyTuple_SET_ITEM(made, 0, number);
                PyTuple_SET_ITEM(made, 1, text);
                PyTuple_SET_ITEM(made, 2, Py_NewRef(Py_None));
                PyTuple_SET_ITEM(made, 3, Py_NewRef(Py_None));
                PyTuple_SET_ITEM(made, 4, got);
                return made;
            }
            Py_DECREF(got);
            Py_DECREF(text);
        }
        PyObject *answer = PyObject_CallFunction(A->fallback, "nO", A->number, line);
        Py_DECREF(line);
        if (!answer) return NULL;
        if (answer != Py_None) return answer;
        Py_DECREF(answer);
    }
}

/* reader.answers(lines, fallback, result) -> an iterator of the lines' Results (see answers_next);
 * ``result`` is the tuple subclass of the Results (ggn.batch.Result). */
static PyObject *reader_answers(ReaderObject *R, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "answers takes 3 arguments");
        return NULL;
    }
    if (!PyCallable_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "fallback must be callable");
        return NULL;
    }
    if (!PyType_Check(args[2]) || !PyType_IsSubtype((PyTypeObject *)args[2], &PyTuple_Type) ||
        ((PyTypeObject *)args[2])->tp_itemsize != PyTuple_Type.tp_itemsize) {
        PyErr_SetString(PyExc_TypeError, "result must be a subclass of tuple");
        return NULL;
    }
    AnswersObject *A = PyObject_GC_New(AnswersObject, &AnswersType);
    if (!A) return NULL;
    A->reader = (ReaderObject *)Py_NewRef((PyObject *)R);
    A->lines = Py_NewRef(args[0]);
    A->it = NULL;
    A->fallback = Py_NewRef(args[1]);
    A->result = (PyTypeObject *)Py_NewRef(args[2]);
    A->number = 0;
    PyObject_GC_Track(A);
    return (PyObject *)A;
}

static PyMethodDef reader_methods[] = {
    {"read", (PyCFunction)reader_read, METH_O, "read(text) -> [str] | None: a FEN line's plays written."},
    {"listed", (PyCFunction)reader_listed, METH_O, "listed(text) -> [str] | bytes | int | None: as read_listed."},
    {"answers", (PyCFunction)(void (*)(void))reader_answers, METH_FASTCALL,
     "answers(lines, fallback, result) -> an iterator of the lines' Results."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ggn._native.Reader",
    .tp_basicsize = sizeof(ReaderObject),
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A batch's reader of FEN lines (made by reader()).",
    .tp_traverse = (traverseproc)reader_traverse,
    .tp_clear = (inquiry)reader_clear,
    .tp_methods = reader_methods,
};

static PyTypeObject AnswersType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ggn._native.Answers",
    .tp_basicsize = sizeof(AnswersObject),
    .tp_dealloc = (destructor)answers_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The Results of a batch's lines (made by Reader.answers).",
    .tp_traverse = (traverseproc)answers_traverse,
    .tp_clear = (inquiry)answers_clear,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)answers_next,
};

/* reader(search, table, ranks, bases, strings, position, hand_order, resolve) -> a Reader: the
 * arguments as read_listed takes them (position and hand_order written by each line read),
 * and resolve(text, got), called where a line's listing is an int or bytes (read()). */
static PyObject *reader_new(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "reader takes 8 arguments");
        return NULL;
    }
    ggn_search *search;
    ggn_game *game;
    if (search_args(args[0], args[4], &search, &game) < 0) return NULL;
    if (!PyCallable_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, "resolve must be callable");
        return NULL;
    }
    ReaderObject *R = PyObject_GC_New(ReaderObject, &ReaderType);
    if (!R) return NULL;
    R->capsule = Py_NewRef(args[0]);
    R->search = search;
    R->game = game;
    R->fen = NULL;
    R->strings = Py_NewRef(args[4]);
    R->resolve = Py_NewRef(args[7]);
    R->held = 0;
    R->moves = NULL;
    R->nmoves = 0;
    PyObject_GC_Track(R);
    PyObject *objects[4] = {args[2], args[3], args[5], args[6]};
    const char *names[4] = {"ranks", "bases", "position", "hand_order"};
    for (; R->held < 4; R->held++)
        if (int32_buffer(objects[R->held], &R->views[R->held], names[R->held]) < 0) goto fail;
    if (R->views[R_POSITION].readonly || R->views[R_HANDS].readonly) {
        PyErr_SetString(PyExc_TypeError, "position and hand_order must be writable");
        goto fail;
    }
    Py_buffer table;
    if (int32_buffer(args[1], &table, "table") < 0) goto fail;
    R->fen = ggn_fen_new(table.buf, (size_t)(table.len / 4));
    PyBuffer_Release(&table);
    if (!R->fen) {
        PyErr_SetString(PyExc_ValueError, "the FEN reader's table does not fit the game");
        goto fail;
    }
    size_t moves = 0;
    int32_t kind, source, destination;
    while (ggn_move_squares(game, (int32_t)moves, &kind, &source, &destination) == GGN_OK && moves < ((size_t)1 << 30)) moves++;
    R->moves = PyMem_Malloc((moves ? moves : 1) * sizeof(ggn_move_key));
    if (!R->moves) { PyErr_NoMemory(); goto fail; }
    if (ggn_moves_keyed(game, R->moves, moves, R->views[R_BASES].buf, (size_t)(R->views[R_BASES].len / 4)) != GGN_OK) {
        PyErr_SetString(PyExc_ValueError, "the game's moves could not be read");
        goto fail;
    }
    R->nmoves = moves;
    return (PyObject *)R;
fail:
    Py_DECREF(R);
    return NULL;
}

/* playout(game, tables, position, seed, first, games, policy, max_plies, rule50, moves, counters) ->
 * (results, pairs): bytes of int32, three a game (winner: 0 first, 1 second, 2 draw, 3 none;
 * ending; length), and with moves the (move, play) pairs of every game in turn (else None).
 * ``counters``: the start's other counters, (the checks the first player and the second have
 * left to give, the counting rules' limit, the count's ply), or None (playout.h). */
static PyObject *playout(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *tables, *position;
    unsigned long long seed, first, games;
    int policy, max_plies, rule50, want;
    int32_t counted[4] = {0, 0, 0, 0};
    PyObject *counters;
    if (!PyArg_ParseTuple(args, "OOOKKKiiipO", &capsule, &tables, &position, &seed, &first, &games, &policy,
                          &max_plies, &rule50, &want, &counters))
        return NULL;
    if (counters != Py_None &&
        !PyArg_ParseTuple(counters, "iiii", &counted[0], &counted[1], &counted[2], &counted[3]))
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
                     (size_t)games, policy, max_plies, rule50, counters == Py_None ? NULL : counted, out,
                     want ? &moves : NULL, err, sizeof err);
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

/* playout_key(game, tables, position, counters) -> int: the repetition key the playouts give
 * the position (ggn_playout_key), for the tests that hold it to Game's key. */
static PyObject *playout_key(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *tables, *position, *counters;
    int32_t counted[4] = {0, 0, 0, 0};
    if (!PyArg_ParseTuple(args, "OOOO", &capsule, &tables, &position, &counters)) return NULL;
    if (counters != Py_None &&
        !PyArg_ParseTuple(counters, "iiii", &counted[0], &counted[1], &counted[2], &counted[3]))
        return NULL;
    ggn_game *game = game_of(capsule);
    if (!game) return NULL;
    Py_buffer tview, pview;
    if (int32_buffer(tables, &tview, "tables") < 0) return NULL;
    if (int32_buffer(position, &pview, "position") < 0) { PyBuffer_Release(&tview); return NULL; }
    uint64_t key = 0;
    char err[256] = {0};
    int rc = ggn_playout_key(game, tview.buf, (size_t)(tview.len / 4), pview.buf, (size_t)(pview.len / 4),
                             counters == Py_None ? NULL : counted, &key, err, sizeof err);
    PyBuffer_Release(&tview);
    PyBuffer_Release(&pview);
    if (rc == GGN_EBADTABLE) {
        PyErr_SetString(PyExc_ValueError, err[0] ? err : "bad playout tables");
        return NULL;
    }
    if (rc != GGN_OK) return failed(rc);
    return PyLong_FromUnsignedLongLong((unsigned long long)key);
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

/* result_ok(result) -> bool: ggn.batch.Result.ok read in C (its error, item 2, is None). */
static PyObject *result_ok(PyObject *self, PyObject *result) {
    if (!PyTuple_Check(result) || PyTuple_GET_SIZE(result) < 5) {
        PyErr_SetString(PyExc_TypeError, "result_ok reads a Result");
        return NULL;
    }
    return PyBool_FromLong(PyTuple_GET_ITEM(result, 2) == Py_None);
}

/* A getter of ggn.batch.Result.value (value_getter(fallback)): a new list of a value of strings
 * (item 4, a list of str: what the kernel's reader keeps, as Result.value copies it), any other
 * by fallback(result) (Result.value's own function). Its self is the fallback. */
static PyObject *result_value(PyObject *fallback, PyObject *result) {
    if (PyTuple_Check(result) && PyTuple_GET_SIZE(result) >= 5) {
        PyObject *value = PyTuple_GET_ITEM(result, 4);
        if (PyList_CheckExact(value)) {
            Py_ssize_t n = PyList_GET_SIZE(value);
            if (n == 0 || PyUnicode_CheckExact(PyList_GET_ITEM(value, 0))) return PyList_GetSlice(value, 0, n);
        }
    }
    return PyObject_CallOneArg(fallback, result);
}

static PyMethodDef result_value_def = {"result_value", result_value, METH_O,
                                       "result_value(result) -> list: Result.value read in C."};

static PyObject *value_getter(PyObject *self, PyObject *fallback) {
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "value_getter takes Result.value's function");
        return NULL;
    }
    return PyCFunction_NewEx(&result_value_def, fallback, NULL);
}

static PyMethodDef methods[] = {
    {"result_ok", result_ok, METH_O, "result_ok(result) -> bool: ggn.batch.Result.ok read in C."},
    {"value_getter", value_getter, METH_O,
     "value_getter(fallback) -> a getter of ggn.batch.Result.value (a str list's copy in C, else fallback)."},
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
    {"reader", (PyCFunction)(void (*)(void))reader_new, METH_FASTCALL,
     "reader(search, table, ranks, bases, strings, position, hand_order, resolve) -> a Reader of FEN lines."},
    {"divide", divide, METH_VARARGS, "divide(game, position, depth) -> [(move, play, count)]."},
    {"playout_key", playout_key, METH_VARARGS,
     "playout_key(game, tables, position, counters) -> int: a position's repetition key in the playouts."},
    {"playout", playout, METH_VARARGS,
     "playout(game, tables, position, seed, first, games, policy, max_plies, rule50, moves, counters) -> (results, pairs)."},
    {"ended", ended, METH_VARARGS, "ended(game, position) -> (end, value): the game's end before the move."},
    {"pseudo", pseudo, METH_VARARGS,
     "pseudo(game, position) -> [(move, plays, legal plays)] | None: a playout's pseudo-legal moves (tests)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "ggn._native", "The native kernel of ggn (C).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&ReaderType) < 0 || PyType_Ready(&AnswersType) < 0) return NULL;
    return PyModule_Create(&module);
}
