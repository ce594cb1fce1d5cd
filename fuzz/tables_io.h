/* What the libFuzzer targets (kernel_fuzz.c, playout_fuzz.c, lines_fuzz.c) share: int32 words
 * read little-endian, whole files of them, and the names of a folder's files of one suffix in
 * order (so that a game's number in an input means the same game from run to run). */
#ifndef GGN_FUZZ_TABLES_IO_H
#define GGN_FUZZ_TABLES_IO_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int32_t read_word(const uint8_t *b) {
    return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
}

static inline int32_t *copy_words(const uint8_t *bytes, size_t count) {
    int32_t *words = malloc(count ? count * sizeof(int32_t) : 1);
    if (words == NULL) abort();
    for (size_t i = 0; i < count; i++) words[i] = read_word(bytes + 4 * i);
    return words;
}

/* A file's int32 words (*count of them), or NULL where it cannot be opened. */
static inline int32_t *read_file(const char *path, size_t *count) {
    FILE *file = fopen(path, "rb");
    if (file == NULL || fseek(file, 0, SEEK_END) != 0) return NULL;
    long size = ftell(file);
    rewind(file);
    uint8_t *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (bytes == NULL || fread(bytes, 1, (size_t)size, file) != (size_t)size) abort();
    fclose(file);
    *count = (size_t)size / 4;
    int32_t *words = copy_words(bytes, *count);
    free(bytes);
    return words;
}

static inline int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the files of ``folder`` ending in ``suffix`` (at most ``most``, each strdup'ed
 * into names), sorted; the program exits with status 2 where the folder cannot be read. */
static inline size_t named_files(const char *target, const char *variable, const char *folder, const char *suffix,
                          char **names, size_t most) {
    DIR *dir = opendir(folder);
    if (dir == NULL) {
        fprintf(stderr, "%s: cannot read %s=%s\n", target, variable, folder);
        exit(2);
    }
    size_t named = 0, tail = strlen(suffix);
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL && named < most) {
        size_t length = strlen(entry->d_name);
        if (length > tail && strcmp(entry->d_name + length - tail, suffix) == 0) names[named++] = strdup(entry->d_name);
    }
    closedir(dir);
    qsort(names, named, sizeof names[0], by_name);
    return named;
}

#endif
