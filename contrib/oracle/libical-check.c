/*
 * libical-check: Debian's libical as a second opinion on an iCalendar file,
 * and the peer Chime's import benchmark measures its reader against.
 *
 *   libical-check FILE            parse FILE; print each error libical
 *                                 finds (its X-LIC-ERROR properties) and exit 1
 *                                 if there is one, else print a summary, exit 0
 *   libical-check --time N FILE   parse FILE N times (1..100000) and print one
 *                                 JSON line: the median and the fastest
 *                                 nanoseconds per parse, the components and
 *                                 the errors found
 *
 *   libical-check --expand START RULE N
 *                                 print the first N (1..10000) occurrences
 *                                 of RULE from START (20261201 or
 *                                 20261201T085000, floating), one a line as
 *                                 libical writes them; exit 1 if libical
 *                                 refuses the rule. Debian's libical is
 *                                 built with ICU, so RFC 7529's RSCALE
 *                                 (CHINESE) and SKIP are expanded too.
 *
 * Exit status 2 for a bad command line or a file that cannot be read.
 * Built by contrib/oracle/setup into .build/oracle/libical-check.
 *
 * libical keeps going after an error: it records it in the tree as an
 * X-LIC-ERROR property (with an X-LIC-ERRORTYPE parameter) and parses on,
 * so the errors are found by walking the tree, not from a return value.
 */
#include <errno.h>
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Deeper than any calendar nests (VCALENDAR > VEVENT > VALARM is 3). */
enum { MAXIMUM_DEPTH = 64 };

struct tally {
    long components;
    long errors;
};

/* Reads the whole file, NUL-terminated, as icalparser_parse_string takes it. */
static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "libical-check: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t capacity = 1 << 16, used = 0;
    char *text = malloc(capacity + 1);
    while (text != NULL) {
        size_t count = fread(text + used, 1, capacity - used, file);
        used += count;
        if (used < capacity) break;
        capacity *= 2;
        char *grown = realloc(text, capacity + 1);
        if (grown == NULL) free(text);
        text = grown;
    }
    int failed = ferror(file);
    fclose(file);
    if (text == NULL || failed) {
        fprintf(stderr, "libical-check: %s: %s\n", path, text == NULL ? "out of memory" : "read error");
        free(text);
        return NULL;
    }
    if (memchr(text, '\0', used) != NULL) {
        /* libical would stop at the NUL and call the rest fine. */
        fprintf(stderr, "libical-check: %s: a NUL byte at offset %zu\n", path, (size_t)((char *)memchr(text, '\0', used) - text));
        free(text);
        return NULL;
    }
    text[used] = '\0';
    *length = used;
    return text;
}

/* Counts components and X-LIC-ERROR properties under `component`; prints
 * each error when `print` is set. */
static void walk(icalcomponent *component, int depth, int print, struct tally *tally) {
    tally->components += 1;
    if (depth > MAXIMUM_DEPTH) {
        if (print) printf("error: components nested deeper than %d\n", MAXIMUM_DEPTH);
        tally->errors += 1;
        return;
    }
    for (icalproperty *property = icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY); property != NULL;
         property = icalcomponent_get_next_property(component, ICAL_XLICERROR_PROPERTY)) {
        tally->errors += 1;
        if (print) {
            icalparameter *kind = icalproperty_get_first_parameter(property, ICAL_XLICERRORTYPE_PARAMETER);
            const char *message = icalproperty_get_xlicerror(property);
            printf("error: in %s: %s%s%s\n", icalcomponent_kind_to_string(icalcomponent_isa(component)),
                   kind != NULL ? icalparameter_enum_to_string(icalparameter_get_xlicerrortype(kind)) : "",
                   kind != NULL ? ": " : "", message != NULL ? message : "");
        }
    }
    for (icalcomponent *child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT); child != NULL;
         child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)) {
        walk(child, depth + 1, print, tally);
    }
}

static int compare(const void *left, const void *right) {
    long long a = *(const long long *)left, b = *(const long long *)right;
    return (a > b) - (a < b);
}

static long long nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int check(const char *path) {
    size_t length = 0;
    char *text = read_file(path, &length);
    if (text == NULL) return 2;
    icalcomponent *root = icalparser_parse_string(text);
    free(text);
    if (root == NULL) {
        printf("error: libical found no component in %s%s%s\n", path, icalerrno != ICAL_NO_ERROR ? ": " : "",
               icalerrno != ICAL_NO_ERROR ? icalerror_strerror(icalerrno) : "");
        return 1;
    }
    struct tally tally = {0, 0};
    walk(root, 0, 1, &tally);
    icalcomponent_free(root);
    if (tally.errors > 0) {
        printf("%s: %ld error%s\n", path, tally.errors, tally.errors == 1 ? "" : "s");
        return 1;
    }
    printf("%s: ok, %ld components\n", path, tally.components);
    return 0;
}

static int time_parses(const char *count_text, const char *path) {
    char *end = NULL;
    long count = strtol(count_text, &end, 10);
    if (end == count_text || *end != '\0' || count < 1 || count > 100000) {
        fprintf(stderr, "libical-check: --time wants a count from 1 to 100000, not %s\n", count_text);
        return 2;
    }
    size_t length = 0;
    char *text = read_file(path, &length);
    if (text == NULL) return 2;
    long long *samples = malloc(sizeof(long long) * (size_t)count);
    if (samples == NULL) {
        free(text);
        fprintf(stderr, "libical-check: out of memory\n");
        return 2;
    }
    struct tally tally = {0, 0};
    for (long run = 0; run < count; run++) {
        long long began = nanoseconds();
        icalcomponent *root = icalparser_parse_string(text);
        samples[run] = nanoseconds() - began;
        if (root == NULL) {
            printf("error: libical found no component in %s\n", path);
            free(samples);
            free(text);
            return 1;
        }
        if (run == 0) walk(root, 0, 0, &tally);
        icalcomponent_free(root);
    }
    qsort(samples, (size_t)count, sizeof(long long), compare);
    printf("{\"parses\":%ld,\"bytes\":%zu,\"median_ns\":%lld,\"fastest_ns\":%lld,\"components\":%ld,\"errors\":%ld}\n", count, length,
           samples[count / 2], samples[0], tally.components, tally.errors);
    free(samples);
    free(text);
    return 0;
}

static int expand(const char *start_text, const char *rule_text, const char *count_text) {
    char *end = NULL;
    long count = strtol(count_text, &end, 10);
    if (end == count_text || *end != '\0' || count < 1 || count > 10000) {
        fprintf(stderr, "libical-check: N must be 1..10000, not %s\n", count_text);
        return 2;
    }
    struct icaltimetype start = icaltime_from_string(start_text);
    if (icaltime_is_null_time(start)) {
        fprintf(stderr, "libical-check: START %s is not a DATE or floating DATE-TIME\n", start_text);
        return 2;
    }
    /* libical 3.0 (Debian's) passes rules by value. */
    struct icalrecurrencetype rule = icalrecurrencetype_from_string(rule_text);
    if (rule.freq == ICAL_NO_RECURRENCE) {
        fprintf(stderr, "libical-check: libical refuses the rule %s\n", rule_text);
        return 1;
    }
    icalrecur_iterator *iterator = icalrecur_iterator_new(rule, start);
    if (iterator == NULL) {
        fprintf(stderr, "libical-check: libical cannot expand %s\n", rule_text);
        return 1;
    }
    for (long n = 0; n < count; n++) {
        struct icaltimetype next = icalrecur_iterator_next(iterator);
        if (icaltime_is_null_time(next)) break;
        printf("%s\n", icaltime_as_ical_string(next));
    }
    icalrecur_iterator_free(iterator);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && argv[1][0] != '-') return check(argv[1]);
    if (argc == 4 && strcmp(argv[1], "--time") == 0) return time_parses(argv[2], argv[3]);
    if (argc == 5 && strcmp(argv[1], "--expand") == 0) return expand(argv[2], argv[3], argv[4]);
    fprintf(stderr, "usage: libical-check FILE | libical-check --time N FILE | libical-check --expand START RULE N\n");
    return 2;
}
