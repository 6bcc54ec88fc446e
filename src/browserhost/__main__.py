from browserhost.cli import main

main()
