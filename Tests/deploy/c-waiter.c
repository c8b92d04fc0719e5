/* A C client that waits for an answer, for test-deploy: presents a question as entry
 * argv[1] on the default socket and waits for its answer; prints "ID ACTION reconnects=N". */
#include "presentd.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: c-waiter ID\n"); return 2; }
    presentd_error err;
    presentd_client *c = presentd_connect(NULL, &err);
    if (!c) { fprintf(stderr, "c-waiter: %s\n", err.message); return 3; }
    char params[512];
    snprintf(params, sizeof params, "{\"id\":\"%s\",\"style\":\"alert\",\"content\":{\"title\":\"Still there?\","
             "\"actions\":[{\"id\":\"yes\",\"title\":\"Yes\",\"role\":\"default\"}]}}", argv[1]);
    presentd_event ev;
    presentd_action_event action;
    if (presentd_call_json(c, "present", params, NULL, 30000, &err) ||
        presentd_next_answer(c, argv[1], &ev, -1, &err)) {
        fprintf(stderr, "c-waiter: %s\n", err.message);
        return 1;
    }
    int acted = presentd_action_of(&ev, &action);
    printf("%s %s reconnects=%d\n", argv[1], acted ? action.action : "none", presentd_reconnects(c));
    presentd_event_clear(&ev);
    presentd_close(c);
    return 0;
}
