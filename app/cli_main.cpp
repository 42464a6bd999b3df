// fdlab-cli: headless front end (being written; see README).
int main() { return 0; }
