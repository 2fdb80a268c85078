/* The reader's fast way: a YAML text's positioned `Node` tree, built in C straight from libyaml's events.
 *
 * `yamlsource.parse_yaml` reads every input file. Its Python reader (`pyyaml_reader`) takes libyaml's events
 * through PyYAML's object layer (an event object and a Mark for every value) and builds the tree in a Python loop:
 * a quarter of `check`'s work on a scenario (docs/development.md, "The native reader"). This module does
 * the same walk in C, over the same libyaml, for an everyday file only: one document, no anchors, aliases or
 * tags, no duplicate or empty key, no control character, within the reader's limits. For anything else,
 * and for any error libyaml reports, `build` returns None and the Python reader reads the file, so every
 * refusal, message and position is the Python reader's own. Where `build` returns a tree, it is the tree the
 * Python reader builds (tests/test_native_reader.py holds the two together, file by file and on mutants).
 *
 * Scalars are resolved as the Python reader resolves them: quoted text is text; a plain value is text when
 * no YAML 1.1 implicit resolver is registered for its first character, and otherwise takes the tag the
 * Python resolver gives (remembered for the values that recur, in a dict of bounded size).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <yaml.h>

/* Set once by `configure`: the record types and the constants of the Python reader. */
static PyObject *node_type, *pos_type, *resolve_plain, *resolved, *allowed_tags;
static PyObject *kind_scalar, *kind_seq, *kind_map, *str_tag, *seq_tag, *map_tag, *null_tag;
static Py_ssize_t max_nodes, max_depth, resolved_max;
static char resolver_starts[256];  /* a first byte for which a YAML 1.1 implicit resolver is registered */
static int resolve_every_plain;    /* a resolver for every first character (a wildcard): ask for each */

/* One list or mapping being read. */
typedef struct {
    PyObject *node;       /* its Node */
    PyObject *container;  /* the Node's list or dict */
    PyObject *key;        /* in a mapping, the key Node read and waiting for its value */
    PyObject *key_text;   /* and its text */
    int is_map;
} frame;

/* The control characters the Python reader refuses (`_CONTROL`): C0 but tab, newline and carriage return,
 * DEL, and C1 but NEL (U+0085). Raw ones never reach here (libyaml refuses them); an escape can write one. */
static int
holds_control(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c < 0x20) {
            if (c != 0x09 && c != 0x0a && c != 0x0d)
                return 1;
        }
        else if (c == 0x7f) {
            return 1;
        }
        else if (c == 0xc2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9f && s[i + 1] != 0x85) {
            return 1;
        }
    }
    return 0;
}

/* The tag of a scalar written with no tag (a new reference). */
static PyObject *
tag_of(PyObject *value, const yaml_event_t *event)
{
    const unsigned char *s = event->data.scalar.value;
    size_t n = event->data.scalar.length;
    if (!event->data.scalar.plain_implicit || (n && !resolve_every_plain && !resolver_starts[s[0]])) {
        Py_INCREF(str_tag);
        return str_tag;
    }
    PyObject *tag = PyDict_GetItemWithError(resolved, value);
    if (tag) {
        Py_INCREF(tag);
        return tag;
    }
    if (PyErr_Occurred())
        return NULL;
    tag = PyObject_CallOneArg(resolve_plain, value);
    if (tag && PyDict_GET_SIZE(resolved) < resolved_max && PyDict_SetItem(resolved, value, tag) < 0) {
        Py_DECREF(tag);
        return NULL;
    }
    return tag;
}

static PyObject *
new_node(PyObject *kind, PyObject *value, PyObject *path, const yaml_mark_t *mark, PyObject *tag)
{
    PyObject *line = PyLong_FromSize_t(mark->line + 1);
    PyObject *column = PyLong_FromSize_t(mark->column + 1);
    PyObject *pos = NULL, *node = NULL;
    if (line && column) {
        PyObject *pos_args[3] = {path, line, column};
        pos = PyObject_Vectorcall(pos_type, pos_args, 3, NULL);
    }
    if (pos) {
        PyObject *node_args[4] = {kind, value, pos, tag};
        node = PyObject_Vectorcall(node_type, node_args, 4, NULL);
    }
    Py_XDECREF(line);
    Py_XDECREF(column);
    Py_XDECREF(pos);
    return node;
}

/* Put a finished value where it stands: 1 placed, 0 the file is not an everyday one, -1 a Python error. */
static int
place(frame *top, PyObject *node, PyObject *value, PyObject *tag)
{
    if (!top->is_map)
        return PyList_Append(top->container, node) < 0 ? -1 : 1;
    if (!top->key) {
        int empty = PyUnicode_Compare(tag, null_tag);
        if (empty == -1 && PyErr_Occurred())
            return -1;
        if (!empty)  /* an empty key: the Python reader says so */
            return 0;
        int present = PyDict_Contains(top->container, value);
        if (present)  /* a duplicate key (1), or an error (-1) */
            return present < 0 ? -1 : 0;
        top->key = Py_NewRef(node);
        top->key_text = Py_NewRef(value);
        return 1;
    }
    PyObject *pair = PyTuple_Pack(2, top->key, node);
    int failed = !pair || PyDict_SetItem(top->container, top->key_text, pair) < 0;
    Py_XDECREF(pair);
    Py_CLEAR(top->key);
    Py_CLEAR(top->key_text);
    return failed ? -1 : 1;
}

/* build(text, path) -> Node | None: the tree of an everyday file, or None for the Python reader to read. */
static PyObject *
build(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "build(text: str, path: str)");
        return NULL;
    }
    if (!node_type) {
        PyErr_SetString(PyExc_RuntimeError, "_yamltree.configure() was not called");
        return NULL;
    }
    PyObject *path = args[1];
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(args[0], &size);
    if (!text) {  /* a lone surrogate: the Python reader refuses it */
        PyErr_Clear();
        Py_RETURN_NONE;
    }

    yaml_parser_t parser;
    yaml_event_t event;
    if (!yaml_parser_initialize(&parser))
        return PyErr_NoMemory();
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, (size_t)size);

    frame *stack = PyMem_Calloc((size_t)max_depth + 2, sizeof(frame));
    if (!stack) {
        yaml_parser_delete(&parser);
        return PyErr_NoMemory();
    }
    Py_ssize_t depth = 0, count = 0;
    PyObject *root = NULL;
    int outcome = 0;  /* 1 a tree, 0 not an everyday file, -1 a Python error */
    int documents = 0, ended = 0;

    for (;;) {
        if (!yaml_parser_parse(&parser, &event))
            break;  /* libyaml's error: the Python reader reports it */
        yaml_event_type_t type = event.type;
        int ok = 1;  /* 0 not an everyday file, -1 a Python error */

        if (type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&event);
            outcome = (root && ended) ? 1 : 0;
            break;
        }
        else if (type == YAML_STREAM_START_EVENT) {
        }
        else if (type == YAML_DOCUMENT_START_EVENT) {
            ok = ++documents == 1 && !event.data.document_start.tag_directives.start;
        }
        else if (type == YAML_DOCUMENT_END_EVENT) {
            ended = 1;
        }
        else if (type == YAML_ALIAS_EVENT) {
            ok = 0;
        }
        else if (type == YAML_SCALAR_EVENT) {
            if (event.data.scalar.anchor || event.data.scalar.tag || ++count > max_nodes || depth > max_depth
                || holds_control(event.data.scalar.value, event.data.scalar.length)) {
                ok = 0;
            }
            else {
                PyObject *value = PyUnicode_DecodeUTF8((const char *)event.data.scalar.value,
                                                       (Py_ssize_t)event.data.scalar.length, "strict");
                PyObject *tag = value ? tag_of(value, &event) : NULL;
                /* a tag the reader does not allow (`=`, `<<`) */
                int allowed = !tag ? -1 : tag == str_tag ? 1 : PySet_Contains(allowed_tags, tag);
                PyObject *node = allowed == 1 ? new_node(kind_scalar, value, path, &event.start_mark, tag) : NULL;
                if (allowed != 1)
                    ok = allowed;
                else if (!node)
                    ok = -1;
                else if (depth)
                    ok = place(&stack[depth - 1], node, value, tag);
                else
                    root = Py_NewRef(node);
                Py_XDECREF(node);
                Py_XDECREF(tag);
                Py_XDECREF(value);
            }
        }
        else if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) {
            int is_map = type == YAML_MAPPING_START_EVENT;
            yaml_char_t *anchor = is_map ? event.data.mapping_start.anchor : event.data.sequence_start.anchor;
            yaml_char_t *tag = is_map ? event.data.mapping_start.tag : event.data.sequence_start.tag;
            /* A list or mapping as a key, nesting past the limit, too many values: the Python reader's. */
            if (anchor || tag || ++count > max_nodes || depth >= max_depth
                || (depth && stack[depth - 1].is_map && !stack[depth - 1].key)) {
                ok = 0;
            }
            else {
                PyObject *container = is_map ? PyDict_New() : PyList_New(0);
                PyObject *node = container ? new_node(is_map ? kind_map : kind_seq, container, path,
                                                      &event.start_mark, is_map ? map_tag : seq_tag)
                                           : NULL;
                if (!node) {
                    Py_XDECREF(container);
                    ok = -1;
                }
                else {
                    stack[depth].node = node;
                    stack[depth].container = container;
                    stack[depth].key = NULL;
                    stack[depth].key_text = NULL;
                    stack[depth].is_map = is_map;
                    depth++;
                }
            }
        }
        else {  /* the end of a list or mapping */
            frame done = stack[--depth];
            Py_XDECREF(done.key);  /* none: libyaml pairs every key */
            Py_XDECREF(done.key_text);
            Py_DECREF(done.container);
            if (depth)
                ok = place(&stack[depth - 1], done.node, NULL, seq_tag);
            else
                root = Py_NewRef(done.node);
            Py_DECREF(done.node);
        }
        yaml_event_delete(&event);
        if (ok != 1) {
            outcome = ok;
            break;
        }
    }

    while (depth > 0) {
        frame *open = &stack[--depth];
        Py_XDECREF(open->key);
        Py_XDECREF(open->key_text);
        Py_DECREF(open->container);
        Py_DECREF(open->node);
    }
    PyMem_Free(stack);
    yaml_parser_delete(&parser);
    if (outcome == 1)
        return root;
    Py_XDECREF(root);
    if (outcome < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* configure(Node, Pos, resolve, starts, wildcard, (scalar, seq, map), (str, seq, map, null tags), allowed tags,
 *           max_nodes, max_depth, cache_size) */
static PyObject *
configure(PyObject *self, PyObject *args)
{
    PyObject *node, *pos, *resolve, *starts, *k[3], *t[4], *allowed;
    int wildcard;
    Py_ssize_t nodes, depth, cache_size;
    if (!PyArg_ParseTuple(args, "OOOUp(UUU)(UUUU)O!nnn", &node, &pos, &resolve, &starts, &wildcard, &k[0], &k[1],
                          &k[2], &t[0], &t[1], &t[2], &t[3], &PyFrozenSet_Type, &allowed, &nodes, &depth,
                          &cache_size))
        return NULL;
    memset(resolver_starts, 0, sizeof resolver_starts);
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(starts, &n);
    if (!s)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            PyErr_SetString(PyExc_ValueError, "resolvers start with ASCII characters only");
            return NULL;
        }
        resolver_starts[c] = 1;
    }
    Py_XSETREF(node_type, Py_NewRef(node));
    Py_XSETREF(pos_type, Py_NewRef(pos));
    Py_XSETREF(resolve_plain, Py_NewRef(resolve));
    Py_XSETREF(kind_scalar, Py_NewRef(k[0]));
    Py_XSETREF(kind_seq, Py_NewRef(k[1]));
    Py_XSETREF(kind_map, Py_NewRef(k[2]));
    Py_XSETREF(str_tag, Py_NewRef(t[0]));
    Py_XSETREF(seq_tag, Py_NewRef(t[1]));
    Py_XSETREF(map_tag, Py_NewRef(t[2]));
    Py_XSETREF(null_tag, Py_NewRef(t[3]));
    Py_XSETREF(allowed_tags, Py_NewRef(allowed));
    PyObject *cache = PyDict_New();
    if (!cache)
        return NULL;
    Py_XSETREF(resolved, cache);
    resolve_every_plain = wildcard;
    max_nodes = nodes;
    max_depth = depth;
    resolved_max = cache_size;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"build", (PyCFunction)(void (*)(void))build, METH_FASTCALL,
     "build(text, path) -> Node | None: the positioned tree of an everyday YAML file, or None for the Python "
     "reader to read it."},
    {"configure", configure, METH_VARARGS, "Set the record types, resolver and limits the reader builds with."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_yamltree", NULL, -1, methods};

PyMODINIT_FUNC
PyInit__yamltree(void)
{
    return PyModule_Create(&module);
}
