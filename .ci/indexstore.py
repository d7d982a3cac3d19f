"""Reads the symbol references of a Swift index store (`-index-store-path`) through the toolchain's
libIndexStore: for each source file, each referenced symbol's USR, name, line and UTF-8 column."""
import ctypes
import os


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def text(self):
        return ctypes.string_at(self.data, self.length).decode("utf-8", "replace") if self.data else ""


APPLY = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, StringRef)
APPLY_POINTER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)
ROLE_REFERENCE = 1 << 2
DEPENDENCY_RECORD = 2


def load(library):
    lib = ctypes.CDLL(library)
    p, s = ctypes.c_void_p, StringRef
    signatures = {
        "indexstore_store_create": (p, [ctypes.c_char_p, ctypes.POINTER(p)]),
        "indexstore_store_dispose": (None, [p]),
        "indexstore_store_units_apply_f": (ctypes.c_bool, [p, ctypes.c_uint, p, APPLY]),
        "indexstore_unit_reader_create": (p, [p, ctypes.c_char_p, ctypes.POINTER(p)]),
        "indexstore_unit_reader_dispose": (None, [p]),
        "indexstore_unit_reader_dependencies_apply_f": (ctypes.c_bool, [p, p, APPLY_POINTER]),
        "indexstore_unit_dependency_get_kind": (ctypes.c_int, [p]),
        "indexstore_unit_dependency_get_name": (s, [p]),
        "indexstore_unit_dependency_get_filepath": (s, [p]),
        "indexstore_record_reader_create": (p, [p, ctypes.c_char_p, ctypes.POINTER(p)]),
        "indexstore_record_reader_dispose": (None, [p]),
        "indexstore_record_reader_occurrences_apply_f": (ctypes.c_bool, [p, p, APPLY_POINTER]),
        "indexstore_occurrence_get_symbol": (p, [p]),
        "indexstore_occurrence_get_roles": (ctypes.c_uint64, [p]),
        "indexstore_occurrence_get_line_col": (None, [p, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]),
        "indexstore_symbol_get_usr": (s, [p]),
        "indexstore_symbol_get_name": (s, [p]),
    }
    for name, (result, arguments) in signatures.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = result, arguments
    return lib


def references(store_path, library, keep_file):
    """Yields (source path, USR, name, line, UTF-8 column, roles) for each reference in a file `keep_file`
    accepts, each once."""
    lib = load(library)
    error = ctypes.c_void_p()
    store = lib.indexstore_store_create(store_path.encode(), ctypes.byref(error))
    if not store:
        raise RuntimeError(f"cannot open the index store at {store_path}")
    units = []
    collect_unit = APPLY(lambda _, name: units.append(name.text()) or True)
    lib.indexstore_store_units_apply_f(store, 0, None, collect_unit)
    records = {}  # record name -> source file
    for unit in units:
        reader = lib.indexstore_unit_reader_create(store, unit.encode(), ctypes.byref(error))
        if not reader:
            continue

        def dependency(_, handle):
            if lib.indexstore_unit_dependency_get_kind(handle) == DEPENDENCY_RECORD:
                path = lib.indexstore_unit_dependency_get_filepath(handle).text()
                if keep_file(path):
                    records[lib.indexstore_unit_dependency_get_name(handle).text()] = path
            return True

        lib.indexstore_unit_reader_dependencies_apply_f(reader, None, APPLY_POINTER(dependency))
        lib.indexstore_unit_reader_dispose(reader)
    seen = set()
    for record, path in sorted(records.items()):
        reader = lib.indexstore_record_reader_create(store, record.encode(), ctypes.byref(error))
        if not reader:
            continue
        found = []

        def occurrence(_, handle):
            if lib.indexstore_occurrence_get_roles(handle) & ROLE_REFERENCE:
                symbol = lib.indexstore_occurrence_get_symbol(handle)
                line, column = ctypes.c_uint(), ctypes.c_uint()
                lib.indexstore_occurrence_get_line_col(handle, ctypes.byref(line), ctypes.byref(column))
                found.append((lib.indexstore_symbol_get_usr(symbol).text(),
                              lib.indexstore_symbol_get_name(symbol).text(), line.value, column.value,
                              lib.indexstore_occurrence_get_roles(handle)))
            return True

        lib.indexstore_record_reader_occurrences_apply_f(reader, None, APPLY_POINTER(occurrence))
        lib.indexstore_record_reader_dispose(reader)
        for usr, name, line, column, roles in found:
            key = (path, usr, line, column)
            if key not in seen:
                seen.add(key)
                yield path, usr, name, line, column, roles
    lib.indexstore_store_dispose(store)
