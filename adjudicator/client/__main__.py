import sys

from adjudicator.client.cli import main

sys.exit(main())
